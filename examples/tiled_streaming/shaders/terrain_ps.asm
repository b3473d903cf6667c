// The terrain's pixels: the virtual (tiled) texture sampled at the camera's
// mip (cb0[0].w) through s0; NULL tiles read zero, texels outside the
// texture the sampler's border colour.
ps_5_0
.input SV_Position0 v0.xyzw float
.input TEXCOORD0 v1.xy float
.output SV_Target0 o0.xyzw float
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t1
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 1
utof r0.x, cb0[0].w
sample_l_indexable(texture2d)(float,float,float,float) o0.xyzw, v1.xyxx, t1.xyzw, s0, r0.x
ret
