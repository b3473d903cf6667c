// Overlays: one rectangle of the view per instance (left, top, right,
// bottom in pixels), nearer than the terrain.
vs_5_0
.input CORNER0 v0.xy float
.input RECT0 v1.xyzw float
.output SV_Position0 o0.xyzw float
dcl_globalFlags refactoringAllowed
dcl_input v0.xy
dcl_input v1.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 1
add r0.xy, -v1.xyxx, v1.zwzz
mad r0.xy, v0.xyxx, r0.xyxx, v1.xyxx
mad o0.x, r0.x, l(0.001953125), l(-1.000000)
mad o0.y, r0.y, l(-0.003472222), l(1.000000)
mov o0.zw, l(0, 0, 0.250000, 1.000000)
ret
