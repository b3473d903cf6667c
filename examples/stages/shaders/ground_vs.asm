// The ground patch's control points, through.
vs_5_0
.input POSITION0 v0.xyzw float
.output POSITION0 o0.xyzw float
dcl_input v0.xyzw
dcl_output o0.xyzw
mov o0.xyzw, v0.xyzw
ret
