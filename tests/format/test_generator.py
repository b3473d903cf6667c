"""The generator's checks: a malformed table is refused with a message that
names the problem, and the real table loads with the expected shape."""

import unittest

from format import api as api_table
from format.api.model import Api, HandWritten, TableError
from format.codegen import c_headers, layout, schema
from format.codegen.common import snake_case


def small_api() -> Api:
    api = Api()
    api.interface("IUnknown", base=None, header="unknwn",
                  uuid="00000000-0000-0000-c000-000000000046", methods=[
                      (1, "HRESULT QueryInterface(REFIID riid, [out, iid=riid] void **ppvObject)"),
                      (2, "ULONG AddRef()"), (3, "ULONG Release()")])
    api.struct("D3D11_BOX", header="d3d11",
               fields="UINT left; UINT top; UINT front; UINT right; UINT bottom; UINT back;")
    return api


def add_widget(api: Api, methods) -> None:
    api.interface("IWidget", base="IUnknown", header="d3d11",
                  uuid="11111111-2222-3333-4444-555555555555", methods=methods)


class RejectsMalformedTables(unittest.TestCase):
    def assert_refused(self, api: Api, *fragments: str) -> None:
        with self.assertRaises(TableError) as caught:
            api.finish()
        for fragment in fragments:
            self.assertIn(fragment, str(caught.exception))

    def test_duplicate_call_id_names_both_methods(self):
        api = small_api()
        add_widget(api, [(3, "void Poke()")])
        self.assert_refused(api, "IWidget::Poke: call id 3 already used by IUnknown::Release")

    def test_unknown_type_is_named(self):
        api = small_api()
        add_widget(api, [(4, "void Poke(const D3D11_NOTHING *pThing)")])
        self.assert_refused(api, "IWidget::Poke: unknown type D3D11_NOTHING")

    def test_count_naming_a_missing_parameter(self):
        api = small_api()
        add_widget(api, [(4, "void Poke(UINT Num, [count=NumBoxes] const D3D11_BOX *pBoxes)")])
        self.assert_refused(api, "IWidget::Poke: pBoxes refers to unknown ['NumBoxes']")

    def test_declared_count_must_match(self):
        api = small_api()
        add_widget(api, [(4, "void Poke()")])
        api.declared_call_count = 5
        self.assert_refused(api, "CALL_COUNT = 5 but has 4 calls")

    def test_unknown_base_interface(self):
        api = small_api()
        api.interface("IOrphan", base="IMissing", header="d3d11",
                      uuid="11111111-2222-3333-4444-555555555556", methods=[])
        self.assert_refused(api, "IOrphan: unknown base interface IMissing")

    def test_unknown_attribute_is_refused_at_declaration(self):
        api = small_api()
        with self.assertRaisesRegex(TableError, "unknown attribute 'countt'"):
            add_widget(api, [(4, "void Poke([countt=2] const UINT *p)")])

    def test_out_parameter_must_be_a_pointer(self):
        api = small_api()
        with self.assertRaisesRegex(TableError, "'Value' is out but not a pointer"):
            add_widget(api, [(4, "void Poke([out] UINT Value)")])

    def test_twice_declared_name(self):
        api = small_api()
        with self.assertRaisesRegex(TableError, "D3D11_BOX: declared twice"):
            api.struct("D3D11_BOX", header="d3d11", fields="UINT left;")

    def test_unknown_hand_written_part(self):
        api = small_api()
        with self.assertRaisesRegex(TableError, "IWidget::Poke: hand_written part 'wrapper'"):
            add_widget(api, [(4, "[hand_written=capture+wrapper] void Poke()")])

    def test_hand_written_replay_needs_a_reason(self):
        api = small_api()
        with self.assertRaisesRegex(TableError, r"IWidget::Poke: replay\(WHY\) needs a reason"):
            add_widget(api, [(4, "[hand_written=replay()] void Poke()")])

    def test_hand_written_is_a_method_attribute(self):
        api = small_api()
        with self.assertRaisesRegex(TableError, "unknown attribute 'hand_written'"):
            add_widget(api, [(4, "void Poke([hand_written=capture] UINT Value)")])

    def test_entry_point_says_its_capture_is_hand_written(self):
        api = small_api()
        with self.assertRaisesRegex(TableError, "MakeWidget: an entry point's capture"):
            api.function(5, "HRESULT WINAPI MakeWidget(UINT Flags)", header="d3d11")


class HandWrittenParts(unittest.TestCase):
    def test_parts_and_reason_are_read_into_the_call(self):
        api = small_api()
        add_widget(api, [(4, "[hand_written=capture+replay(waits, then polls "
                             "again)] void Poke()"), (5, "void Prod()")])
        poke, prod = api.interfaces["IWidget"].methods
        self.assertEqual(poke.hand_written,
                         HandWritten(capture=True, replay="waits, then polls again"))
        self.assertTrue(poke.hand_written)
        self.assertFalse(prod.hand_written)
        self.assertEqual(prod.hand_written, HandWritten())


class RealTable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = api_table.load()

    def test_context_methods_fill_slots_7_to_143(self):
        slots = [m.slot for name in ("ID3D11DeviceContext", "ID3D11DeviceContext1",
                                     "ID3D11DeviceContext2")
                 for m in self.api.interfaces[name].methods]
        self.assertEqual(slots, list(range(7, 144)))

    def test_call_ids_are_unique(self):
        ids = [c.call_id for c in self.api.all_calls()]
        self.assertEqual(len(ids), len(set(ids)))
        self.assertEqual(len(ids), api_table.CALL_COUNT)

    def test_tile_region_layout(self):
        size, align, offsets = layout.Layouts(self.api).struct("D3D11_TILE_REGION_SIZE")
        self.assertEqual((size, align), (16, 4))
        self.assertEqual(offsets, {"NumTiles": 0, "bUseBox": 4, "Width": 8, "Height": 12,
                                   "Depth": 14})

    def test_view_desc_union_layout(self):
        size, _, offsets = layout.Layouts(self.api).struct("D3D11_SHADER_RESOURCE_VIEW_DESC")
        self.assertEqual(size, 24)
        self.assertEqual(offsets["Buffer"], 8)
        self.assertEqual(offsets["TextureCubeArray"], 8)

    def test_header_declares_update_tile_mappings(self):
        text = c_headers.generate(self.api)["d3d11_2.h"]
        self.assertIn("virtual HRESULT STDMETHODCALLTYPE UpdateTileMappings(ID3D11Resource "
                      "*pTiledResource, UINT NumTiledResourceRegions,", text)
        self.assertIn("#include <d3d11_1.h>", text)

    def test_schema_maps_objects_to_ids_and_arrays_to_vectors(self):
        text = schema.generate(self.api)
        self.assertIn("table ID3D11DeviceContext_VSSetShaderResources {\n"
                      "  start_slot:uint;  // in\n"
                      "  num_views:uint;  // in\n"
                      "  pp_shader_resource_views:[ulong];  // in\n}", text)

    def test_hand_written_calls(self):
        calls = self.api.all_calls()
        self.assertEqual(sum(bool(c.hand_written) for c in calls), 29)
        self.assertEqual(sum(c.hand_written.capture for c in calls), 24)   # 5 entry points
        self.assertEqual([c.name for c in calls if c.hand_written.replay],
                         ["AddRef", "Release", "Map", "Unmap", "GetData", "D3D11CreateDevice",
                          "D3D11CreateDeviceAndSwapChain", "GetDisplayModeList",
                          "EnqueueSetEvent", "GetDisplayModeList1", "EnumAdapterByLuid"])

    def test_snake_case(self):
        self.assertEqual(snake_case("pTiledResourceRegionStartCoordinates"),
                         "p_tiled_resource_region_start_coordinates")
        self.assertEqual(snake_case("NumRTVs"), "num_rtvs")
        self.assertEqual(snake_case("UAVStartSlot"), "uav_start_slot")


if __name__ == "__main__":
    unittest.main()
