// Overlays over tiles still loading: translucent orange, alpha-blended.
ps_5_0
.input SV_Position0 v0.xyzw float
.output SV_Target0 o0.xyzw float
dcl_globalFlags refactoringAllowed
dcl_output o0.xyzw
mov o0.xyzw, l(1.000000, 0.500000, 0.000000, 0.400000)
ret
