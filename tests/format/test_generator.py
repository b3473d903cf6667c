"""The generator's checks: a malformed table is refused with a message that
names the problem, and the real table loads with the expected shape."""

import unittest

from format import api as api_table
from format.api.model import Api, TableError
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

    def test_snake_case(self):
        self.assertEqual(snake_case("pTiledResourceRegionStartCoordinates"),
                         "p_tiled_resource_region_start_coordinates")
        self.assertEqual(snake_case("NumRTVs"), "num_rtvs")
        self.assertEqual(snake_case("UAVStartSlot"), "uav_start_slot")


if __name__ == "__main__":
    unittest.main()
