// A UI vertex: its pixel position through cb0's orthographic projection
// (rows 0, 1 and 3: the position is (x, y, 0, 1)), its texture coordinate
// and colour passed on.
vs_4_0
.input POSITION0 v0.xy float
.input TEXCOORD0 v1.xy float
.input COLOR0 v2.xyzw float
.output SV_Position0 o0.xyzw float
.output COLOR0 o1.xyzw float
.output TEXCOORD0 o2.xy float
dcl_constantbuffer cb0[4], immediateIndexed
dcl_input v0.xy
dcl_input v1.xy
dcl_input v2.xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_output o2.xy
dcl_temps 1
mul r0.xyzw, v0.yyyy, cb0[1].xyzw
mad r0.xyzw, v0.xxxx, cb0[0].xyzw, r0.xyzw
add o0.xyzw, r0.xyzw, cb0[3].xyzw
mov o1.xyzw, v2.xyzw
mov o2.xy, v1.xyxx
ret
