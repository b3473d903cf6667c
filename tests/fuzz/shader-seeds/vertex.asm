vs_5_0
.cbuffer Transform b0 64
.variable world_view_projection 0 float4x4
.input POSITION0 v0.xyz float
.input TEXCOORD0 v1.xy float
.output SV_Position0 o0.xyzw float
.output TEXCOORD0 o1.xy float
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[4], immediateIndexed
dcl_input v0.xyz
dcl_input v1.xy
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_temps 1
mul r0.xyzw, v0.yyyy, cb0[1].xyzw
mad r0.xyzw, v0.xxxx, cb0[0].xyzw, r0.xyzw
mad r0.xyzw, v0.zzzz, cb0[2].xyzw, r0.xyzw
add o0.xyzw, r0.xyzw, cb0[3].xyzw
mov o1.xy, v1.xyxx
ret
