// A vertex as given, in clip space, with its colour.
vs_4_0
.input POSITION0 v0.xy float
.input COLOR0 v1.xyzw float
.output SV_Position0 o0.xyzw float
.output COLOR0 o1.xyzw float
dcl_input v0.xy
dcl_input v1.xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
mov o0.xy, v0.xyxx
mov o0.zw, l(0, 0, 0.500000, 1.000000)
mov o1.xyzw, v1.xyzw
ret
