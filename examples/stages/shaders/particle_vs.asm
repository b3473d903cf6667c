// A particle to draw: its position through, its colour from its hue (the
// velocity's z).
vs_4_0
.input POSITION0 v0.xyzw float
.input VELOCITY0 v1.xyzw float
.output POSITION0 o0.xyzw float
.output COLOR0 o1.xyzw float
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
mov o0.xyzw, v0.xyzw
add o1.y, -v1.z, l(1.000000)
mov o1.xzw, l(0.000000, 0.000000, 1.000000, 1.000000)
mov o1.x, v1.z
ret
