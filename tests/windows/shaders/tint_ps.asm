// The interpolated colour times the tint of the bound constant-buffer window.
ps_4_0
.input SV_Position0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Target0 o0.xyzw float
dcl_constantbuffer cb0[1], immediateIndexed
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
mul o0.xyzw, v1.xyzw, cb0[0].xyzw
ret
