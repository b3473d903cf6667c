// The terrain: one 64x64-pixel cell of the view per instance. The vertex's
// pixel is (cell + corner) * 64; its texture coordinate the texel of the
// camera's mip under that pixel (the view centred on the camera), over the
// mip's size. cb0 is the frame record's camera block: x, y (mip-0 texels),
// scale, lod; cb0[2].w the virtual texture's size.
vs_5_0
.input CORNER0 v0.xy float
.input CELL0 v1.xy float
.output SV_Position0 o0.xyzw float
.output TEXCOORD0 o1.xy float
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[3], immediateIndexed
dcl_input v0.xy
dcl_input v1.xy
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_temps 2
add r0.xy, v0.xyxx, v1.xyxx
mul r0.xy, r0.xyxx, l(64.000000, 64.000000, 0.000000, 0.000000)
mad o0.x, r0.x, l(0.001953125), l(-1.000000)
mad o0.y, r0.y, l(-0.003472222), l(1.000000)
mov o0.zw, l(0, 0, 0.500000, 1.000000)
ushr r1.xy, cb0[0].xyxx, cb0[0].wwww
ushr r1.z, cb0[2].w, cb0[0].w
utof r1.xyz, r1.xyzx
add r1.xy, r1.xyxx, l(-512.000000, -288.000000, 0.000000, 0.000000)
add r0.xy, r0.xyxx, r1.xyxx
div o1.xy, r0.xyxx, r1.zzzz
ret
