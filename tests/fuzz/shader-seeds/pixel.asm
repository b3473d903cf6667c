ps_5_0
.input SV_Position0 v0.xyzw float
.input TEXCOORD0 v1.xy float
.output SV_Target0 o0.xyzw float
dcl_globalFlags refactoringAllowed
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
sample_indexable(texture2d)(float,float,float,float) o0.xyzw, v1.xyxx, t0.xyzw, s0
ret
