"""Generates checks/context_calls.inc: one call of every device-context method,
with what its record must hold.

Each entry calls the method through the capture layer on a test fixture's
context, then returns the fields the record of that call must hold, by their
names in the schema, as text (the rules are in tests/capture/support/field_text.h):

    D3DCAP_CONTEXT_CALL(ID3D11DeviceContext_VSSetConstantBuffers, [](ContextFixture& f) {
        UINT StartSlot = static_cast<UINT>(2u);
        UINT NumBuffers = static_cast<UINT>(1u);
        ID3D11Buffer* ppConstantBuffers[1] = {f.object<ID3D11Buffer>(0)};
        f.context->VSSetConstantBuffers(StartSlot, NumBuffers, ppConstantBuffers);
        testing::ExpectedFields expected = {
            {"start_slot", R"~(2)~", true},      // true: a value the call is given
            {"num_buffers", R"~(1)~", true},
            {"pp_constant_buffers", f.ids_text(ppConstantBuffers, 1), true},
        };
        return expected;
    })

The text of a value the call is given is written here, in Python, from the
same sample value the call gets: the generated encoders and JSON dumper have
no part in it. What the generator cannot know (the ids the layer gives the
fixture's objects, what out-parameters receive) the fixture reads from its
variables after the call. The tests read the recorded fields through
FlatBuffers' reflection of the schema and compare them with these.

The sample values of one call all differ, so that two parameters swapped in
an encoder show (the tests check that the given values' texts differ, the
objects' ids included):
  enums          a real enumerator (flag enums: two bits or'ed), one not taken yet
  counts         the smallest numbers not taken yet, from 1 (the arrays they
                 count hold that many elements)
  start slots    the smallest number not taken yet, from 2
  DXGI formats   R32_UINT (an index format); topologies: triangle list
  byte counts    16 (the blobs they count are 16 bytes)
  other integers 20, 24, 28, ...: above the fixture's object ids, 4-byte aligned
  floats         20.5, 24.5, ... (exact in a float, never an integer)
  boxes          empty (left >= right, top >= bottom, front >= back), so that
                 copies and updates through them do nothing
  objects        the fixture's object of the interface; a second one of the
                 same interface in one call gets the fixture's second, if any
Parameters with a size rule get no data (the layer records none then either).
A blob whose size is a struct field times a constant (UpdateTiles' tiles)
gets a size of 0, and so no data.
"""

from __future__ import annotations

import re

from ..api.model import TableError
from .common import BANNER, snake_case
from .json_dump import PLATFORM_STRUCTS, Classifier, Kind, enum_values
from .schema import call_type_name

CONTEXT_INTERFACES = ("ID3D11DeviceContext", "ID3D11DeviceContext1", "ID3D11DeviceContext2")

_BLOB_BYTES = 16
_FIRST_NUMBER = 20
_NUMBER_STEP = 4
_SLOT_PARAMS = {"StartSlot", "UAVStartSlot"}
_FIRST_SLOT = 2
# C types (or their typedefs) the devices act on: a real value each, R32_UINT
# and a triangle list.
_FIXED_TYPES = {"DXGI_FORMAT": 42, "D3D_PRIMITIVE_TOPOLOGY": 4}
# Structs whose fields get their samples last field first, so that each start
# is above its end: an empty box.
_EMPTY_STRUCTS = {"D3D11_BOX"}


class _Leaf:
    """One scalar a call is given: its category decides its sample value."""

    def __init__(self, category: str, kind: Kind, value=None) -> None:
        self.category = category   # fixed enum slot number
        self.kind = kind
        self.value = value


class _Allocator:
    """Hands out the sample values of one call, each once."""

    def __init__(self, api, call: str) -> None:
        self.api = api
        self.call = call
        self.taken: set = set()
        self.next_number = _FIRST_NUMBER

    def take(self, value, what: str):
        if value in self.taken:
            raise TableError(f"capture samples: {self.call}: {what}: sample {value} "
                             "is taken by another parameter")
        self.taken.add(value)
        return value

    def smallest(self, start: int) -> int:
        value = start
        while value in self.taken:
            value += 1
        return self.take(value, "")

    def enum(self, name: str) -> int:
        values = [v for v, _ in enum_values(self.api, name)]
        candidates = [v for v in values if v]
        if self.api.enums[name].flags:
            singles = sorted({v for v in values if v and v & (v - 1) == 0})
            pairs = [a | b for i, a in enumerate(singles) for b in singles[i + 1:]]
            candidates = pairs + singles
        for value in candidates:
            if value not in self.taken:
                return self.take(value, name)
        raise TableError(f"capture samples: {self.call}: every enumerator of {name} "
                         "is taken by another parameter")

    def number(self, kind: Kind):
        while self.next_number in self.taken:
            self.next_number += _NUMBER_STEP
        value = self.take(self.next_number, "")
        self.next_number += _NUMBER_STEP
        return value + 0.5 if kind.scalar in ("float", "double") else value


class _Samples:
    """The samples and expected fields of one call."""

    def __init__(self, api, cl: Classifier, m) -> None:
        self.api = api
        self.cl = cl
        self.m = m
        self.name = call_type_name(m)
        self.alloc = _Allocator(api, self.name)
        self.params = {p.name: p for p in m.params}
        self.object_uses: dict[str, int] = {}
        # Struct fields that a blob's size counts: param -> {field: value}.
        self.fixed_fields: dict[str, dict[str, int]] = {}
        self.byte_counts: set[str] = set()
        for p in m.params:
            if p.bytes and p.bytes in self.params:
                self.byte_counts.add(p.bytes)
            elif p.bytes:
                field = re.fullmatch(r"(\w+)->(\w+)\s*\*\s*\w+", p.bytes)
                if not field or field.group(1) not in self.params:
                    raise TableError(f"capture samples: {self.name}: {p.name}: no sample "
                                     f"for a size of {p.bytes}")
                self.fixed_fields.setdefault(field.group(1), {})[field.group(2)] = 0
        # Values with few choices first: the enums and fixed values of plain
        # parameters, then the counts (which size the arrays), then the rest.
        self.plain = self._plain_values()
        self.counts = self._count_values()

    # -- sample values ---------------------------------------------------------

    def _plain_values(self) -> dict[str, _Leaf]:
        """The plain parameters whose values are enumerators or fixed."""
        plain: dict[str, _Leaf] = {}
        for p in self.m.params:
            if p.type.pointers or p.array is not None or p.direction != "in":
                continue
            kind = self.cl.param(p)
            if p.name in self.byte_counts:
                plain[p.name] = _Leaf("fixed", kind, self.alloc.take(_BLOB_BYTES, p.name))
            elif kind.what == "enum":
                plain[p.name] = _Leaf("enum", kind, self.alloc.enum(kind.enum))
            elif kind.what == "num" and self._fixed_type(p.type.base) is not None:
                value = self.alloc.take(self._fixed_type(p.type.base), p.name)
                plain[p.name] = _Leaf("fixed", kind, value)
        return plain

    def _count_values(self) -> dict[str, int]:
        """The values of the parameters that count another's elements."""
        counted: list[str] = []
        for p in self.m.params:
            if p.count:
                name = p.count.lstrip("*").strip()
                if name not in self.params:
                    raise TableError(f"capture samples: {self.name}: {p.name}: no sample "
                                     f"for a count of {p.count}")
                if name not in counted:
                    counted.append(name)
        return {name: self.alloc.smallest(1) for name in counted}

    def _fixed_type(self, base: str) -> int | None:
        while True:
            if base in _FIXED_TYPES:
                return _FIXED_TYPES[base]
            if base not in self.api.typedefs:
                return None
            base = self.api.typedefs[base].target

    def _element_count(self, p) -> int:
        if p.array is not None:
            return p.array
        if p.count:
            return self.counts[p.count.lstrip("*").strip()]
        return 1

    def _leaves(self, kind: Kind, order: list[_Leaf], fixed: dict[str, int] | None = None):
        """The sample tree of a value of that kind (scalars: a _Leaf), its
        leaves appended to order in the order they get their values."""
        if kind.what == "enum":
            leaf = _Leaf("enum", kind)
        elif kind.what == "num":
            leaf = _Leaf("number", kind)
        elif kind.what == "struct" and not kind.table:
            members = self.cl.struct_members(kind.struct)
            tree, leaves = {}, []
            for c_name, _, member, _ in members:
                if fixed and c_name in fixed:
                    tree[c_name] = _Leaf("fixed", member, self.alloc.take(fixed[c_name], c_name))
                else:
                    tree[c_name] = self._leaves(member, leaves)
            order += reversed(leaves) if kind.struct in _EMPTY_STRUCTS else leaves
            return tree
        elif kind.what == "array":
            return [self._leaves(kind.element, order) for _ in range(kind.length)]
        else:
            raise TableError(f"capture samples: {self.name}: no sample for {kind}")
        order.append(leaf)
        return leaf

    def _assign(self, order: list[_Leaf]) -> None:
        for category in ("enum", "slot", "number"):
            for leaf in order:
                if leaf.category != category or leaf.value is not None:
                    continue
                if category == "enum":
                    leaf.value = self.alloc.enum(leaf.kind.enum)
                elif category == "slot":
                    leaf.value = self.alloc.smallest(_FIRST_SLOT)
                else:
                    leaf.value = self.alloc.number(leaf.kind)

    # -- the entry ---------------------------------------------------------------

    def _given_tree(self, p, kind: Kind, order: list[_Leaf]):
        """The sample tree of a value parameter the call reads (None for the
        others): a _Leaf, a list of elements, or a dict of struct fields."""
        name = p.name
        if p.direction != "in" or kind.what in ("object", "string", "blob"):
            return None
        if p.array is None and p.type.pointers == 0:
            if name in self.counts:
                return _Leaf("fixed", kind, self.counts[name])
            leaf = self.plain.get(name) or _Leaf(
                "slot" if name in _SLOT_PARAMS else "number", kind)
            order.append(leaf)
            return leaf
        if kind.what == "vector" and kind.element.what == "object":
            return None
        if kind.what not in ("vector", "struct", "num", "enum"):
            return None
        element = kind.element if kind.what == "vector" else kind
        items = [self._leaves(element, order, self.fixed_fields.get(name))
                 for _ in range(self._element_count(p))]
        return items if kind.what == "vector" else items[0]

    def entry(self) -> list[str]:
        order: list[_Leaf] = []
        kinds = {p.name: self.cl.param(p) for p in self.m.params}
        trees = {p.name: self._given_tree(p, kinds[p.name], order) for p in self.m.params}
        self._assign(order)
        decls: list[str] = []
        sets: list[str] = []
        args: list[str] = []
        releases: list[str] = []
        fields: list[tuple[str, str, bool]] = []   # (field, C++ string expression, given)
        for p in self.m.params:
            kind = kinds[p.name]
            tree = trees[p.name]
            name = p.name
            base = p.type.base
            n = self._element_count(p)
            field = snake_case(name)
            if isinstance(tree, _Leaf) and p.array is None and p.type.pointers == 0:
                decls.append(f"{base} {name} = static_cast<{base}>({_literal(tree)});")
                args.append(name)
                fields.append((field, _raw(_number_text(tree.value)), True))
            elif tree is not None:
                target = name if p.array is not None else f"{name}_value"
                if p.array is not None:
                    decls.append(f"{base} {name}[{n}] = {{}};")
                else:
                    decls.append(f"std::remove_cv_t<{base}> {target}[{n}] = {{}};")
                self._sets(sets, target, tree if isinstance(tree, list) else [tree])
                args.append(target)
                fields.append((field, _raw(self._text(kind, tree)), True))
            elif kind.what == "string":
                decls.append(f'const wchar_t* {name} = L"label \\u00e9";')
                args.append(name)
                fields.append((field, _raw(_string_text("label \u00e9")), True))
            elif kind.what == "object" and p.direction == "in":
                decls.append(f"{base}* {name} = {self._object(base)};")
                args.append(name)
                fields.append((field, f"f.id_text({name})", True))
            elif kind.what == "object":
                decls.append(f"{base}* {name}_out = nullptr;")
                args.append(f"&{name}_out")
                releases.append(f"f.release({name}_out);")
                fields.append((field, f"f.id_text({name}_out)", False))
            elif kind.what == "vector" and kind.element.what == "object":
                if p.direction == "in":
                    objects = ", ".join(self._object(base) for _ in range(n))
                    decls.append(f"{base}* {name}[{n}] = {{{objects}}};")
                else:
                    decls.append(f"{base}* {name}[{n}] = {{}};")
                    releases += [f"f.release({name}[{i}]);" for i in range(n)]
                args.append(name)
                fields.append((field, f"f.ids_text({name}, {self._count_expr(p)})",
                               p.direction == "in"))
            elif kind.what == "blob" and p.size_rule:
                args.append("nullptr")
                fields.append((field, _raw("null"), True))
            elif kind.what == "blob":
                size = _BLOB_BYTES if p.bytes in self.params else 0
                if p.direction == "in":
                    data = list(range(1, _BLOB_BYTES + 1))
                    decls.append(f"std::uint8_t {name}[{_BLOB_BYTES}] = "
                                 f"{{{', '.join(map(str, data))}}};")
                    # Tiles of none (or, here, of a resource that is not
                    # tiled) carry no data: the layer records none.
                    text = _raw("[" + ",".join(map(str, data[:size])) + "]" if size else "null")
                else:
                    decls.append(f"std::uint8_t {name}[{_BLOB_BYTES}] = {{}};")
                    text = f"testing::numbers_text({name}, {size})"
                args.append(name)
                fields.append((field, text, p.direction == "in"))
            elif p.direction != "in" and kind.what in ("vector", "struct", "num", "enum"):
                # What an out (or in-out) pointer holds after the call.
                init = str(self.counts[name]) if name in self.counts else ""
                target = name if p.array is not None else f"{name}_value"
                if p.array is not None:
                    decls.append(f"{base} {name}[{n}] = {{}};")
                else:
                    decls.append(f"std::remove_cv_t<{base}> {target}[{n}] = {{{init}}};")
                args.append(target)
                if kind.what == "vector":
                    element = self._cpp_text_function(kind.element)
                    text = f"testing::list_text({target}, {self._count_expr(p)}, {element})"
                else:
                    text = self._cpp_text(kind, f"{target}[0]")
                fields.append((field, text, False))
            else:
                raise TableError(f"capture samples: {self.name}: {name}: no rule for "
                                 f"{kind.what}")
        out = [f"D3DCAP_CONTEXT_CALL({self.name}, [](ContextFixture& f) {{"]
        out += [f"    {d}" for d in decls + sets]
        out.append(f"    f.context->{self.m.name}({', '.join(args)});")
        out.append("    testing::ExpectedFields expected = {")
        out += [f'        {{"{field}", {text}, {"true" if is_given else "false"}}},'
                for field, text, is_given in fields]
        out.append("    };")
        out += [f"    {r}" for r in releases]
        out.append("    return expected;")
        out.append("})")
        return out

    def _object(self, base: str) -> str:
        use = self.object_uses.get(base, 0)
        self.object_uses[base] = use + 1
        return f"f.object<{base}>({use})"

    def _count_expr(self, p) -> str:
        """The C++ count of a vector parameter's elements after the call."""
        if p.array is not None:
            return str(p.array)
        name = p.count.lstrip("*").strip()
        return f"{name}_value[0]" if p.count.startswith("*") else str(self.counts[name])

    def _sets(self, out: list[str], target: str, tree) -> None:
        """Statements giving the sample tree to the C value target."""
        if isinstance(tree, _Leaf):
            out.append(f"testing::set_sample({target}, {_literal(tree)});")
        elif isinstance(tree, list):
            for i, item in enumerate(tree):
                self._sets(out, f"{target}[{i}]", item)
        else:
            for c_name, item in tree.items():
                self._sets(out, f"{target}.{c_name}", item)

    def _text(self, kind: Kind, tree) -> str:
        """The expected text of a sample tree."""
        if isinstance(tree, _Leaf):
            return _number_text(tree.value)
        if isinstance(tree, list):
            return "[" + ",".join(self._text(kind.element, t) for t in tree) + "]"
        items = [f"{_schema_field(kind.struct, c_name)}={self._text(member, tree[c_name])}"
                 for c_name, _, member, _ in self.cl.struct_members(kind.struct)]
        return "{" + ",".join(items) + "}"

    def _cpp_text(self, kind: Kind, expr: str) -> str:
        """A C++ expression: the text of the C value expr after the call."""
        w = kind.what
        if w in ("num", "enum"):
            return f"testing::number_text({expr})"
        if w == "object":
            return f"f.id_text({expr})"
        if w == "array":
            element = self._cpp_text_function(kind.element)
            return f"testing::list_text({expr}, {kind.length}, {element})"
        if w == "blob":
            # Data of a size the call does not tell is not recorded.
            return _raw("null")
        if w == "struct":
            parts = []
            for c_name, _, member, _ in self.cl.struct_members(kind.struct):
                label = _raw(("{" if not parts else ",") + _schema_field(kind.struct, c_name) + "=")
                parts += [label, self._cpp_text(member, f"{expr}.{c_name}")]
            return "(std::string(" + ") + (".join(parts) + ') + "}")'
        raise TableError(f"capture samples: {self.name}: no text of an out {kind}")

    def _cpp_text_function(self, kind: Kind) -> str:
        return f"[&](const auto& v) {{ return {self._cpp_text(kind, 'v')}; }}"


def _schema_field(struct: str, c_name: str) -> str:
    """The schema's name of a struct field (the prelude structs name their own)."""
    for c, fbs_name, _ in PLATFORM_STRUCTS.get(struct, []):
        if c == c_name:
            return fbs_name
    return snake_case(c_name)


def _literal(leaf: _Leaf) -> str:
    value = leaf.value
    if isinstance(value, float):
        return repr(value)
    return f"{value}u" if value >= 0 else str(value)


def _number_text(value) -> str:
    """Numbers as std::to_chars writes them: integers plainly, the float samples
    (halves, far from any exponent) with their one decimal."""
    if isinstance(value, float):
        if value * 2 != int(value * 2) or value == int(value) or abs(value) >= 1 << 20:
            raise TableError(f"capture samples: float sample {value} has no agreed spelling")
        return repr(value)
    return str(value)


def _string_text(text: str) -> str:
    """A string's text: quoted, bytes outside printable ASCII (and the quote
    and backslash) as \\xNN."""
    out = ['"']
    for byte in text.encode("utf-8"):
        if 0x20 <= byte < 0x7F and byte not in (ord('"'), ord("\\")):
            out.append(chr(byte))
        else:
            out.append(f"\\x{byte:02x}")
    out.append('"')
    return "".join(out)


def _raw(text: str) -> str:
    """A C++ raw string literal of ASCII text."""
    if ")~" in text or not text.isascii():
        raise TableError(f"capture samples: {text!r} cannot be a raw literal")
    return f'R"~({text})~"'


def generate(api) -> str:
    cl = Classifier(api)
    out = [f"// {BANNER}",
           "// One call of every device-context method for the capture coverage tests,",
           "// with the fields its record must hold (format/codegen/capture_samples.py).",
           "// clang-format off"]
    count = 0
    for iface in CONTEXT_INTERFACES:
        if iface == "ID3D11DeviceContext2":
            # A program for a D3D11.1 runtime (Wine's) leaves these out.
            out.append("#ifndef D3DCAP_CONTEXT_CALLS_WITHOUT_CONTEXT2")
        for m in api.interfaces[iface].methods:
            out += _Samples(api, cl, m).entry()
            count += 1
        if iface == "ID3D11DeviceContext2":
            out.append("#endif")
    out += ["// clang-format on", f"// {count} methods", ""]
    return "\n".join(out)
