// Each particle (a point) becomes a square of side 0.125 centred on it: a
// four-vertex strip.
gs_4_0
.input POSITION0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Position0 o0.xyzw float
.output COLOR0 o1.xyzw float
dcl_input v[1][0].xyzw
dcl_input v[1][1].xyzw
dcl_inputprimitive point
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_maxout 4
add o0.xyzw, v[0][0].xyzw, l(-0.062500, 0.062500, 0.000000, 0.000000)
mov o1.xyzw, v[0][1].xyzw
emit
add o0.xyzw, v[0][0].xyzw, l(0.062500, 0.062500, 0.000000, 0.000000)
mov o1.xyzw, v[0][1].xyzw
emit
add o0.xyzw, v[0][0].xyzw, l(-0.062500, -0.062500, 0.000000, 0.000000)
mov o1.xyzw, v[0][1].xyzw
emit
add o0.xyzw, v[0][0].xyzw, l(0.062500, -0.062500, 0.000000, 0.000000)
mov o1.xyzw, v[0][1].xyzw
emit
ret
