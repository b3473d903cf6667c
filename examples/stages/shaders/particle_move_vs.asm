// Moves a particle by its velocity times cb0[0].x (the frame's time step),
// wrapping around the view's [-1, 1] square; streamed out, not rasterized.
vs_4_0
.input POSITION0 v0.xyzw float
.input VELOCITY0 v1.xyzw float
.output POSITION0 o0.xyzw float
.output VELOCITY0 o1.xyzw float
dcl_constantbuffer cb0[1], immediateIndexed
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
mad r0.xy, v1.xyxx, cb0[0].xxxx, v0.xyxx
mad r0.xy, r0.xyxx, l(0.500000, 0.500000, 0.000000, 0.000000), l(0.500000, 0.500000, 0.000000, 0.000000)
frc r0.xy, r0.xyxx
mad o0.xy, r0.xyxx, l(2.000000, 2.000000, 0.000000, 0.000000), l(-1.000000, -1.000000, 0.000000, 0.000000)
mov o0.zw, v0.zzzw
mov o1.xyzw, v1.xyzw
ret
