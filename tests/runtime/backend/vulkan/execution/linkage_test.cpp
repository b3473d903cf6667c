// How stages link: by register, as D3D11's stages share a register array
// (the semantics are the debug layer's business, not the hardware's).
#include "draw_support.h"

using namespace execution_tests;

TEST_CASE("A pixel shader reads the vertex shader's register whatever its semantic",
          "[draw][linkage]") {
    TestDevice& test = *hardware_device();
    // TEXCOORD3 at v1, where the vertex shader writes COLOR0 to o1.
    Scene renamed(test, R"(ps_5_0
.input SV_Position0 v0.xyzw float
.input TEXCOORD3 v1.xyzw float
.output SV_Target0 o0.xyzw float
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
mov o0.xyzw, v1.xyzw
ret
)");
    auto vb = renamed.vertices(quad(-1, -1, 1, 1, 0.5f, {1.0f, 0.2f, 0.6f, 1.0f}));
    renamed.draw(6);
    CHECK(renamed.texels() == rows(4, rgba(255, 51, 153, 255), 0));
    check_validation_clean();
}
