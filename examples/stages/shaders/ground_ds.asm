// Each domain point: the bilinear blend of the corners, raised by a wave
// that moves with the frame (cb0[0].z), coloured by its height.
ds_5_0
.input POSITION0 v0.xyzw float
.patch_constant SV_TessFactor0 vpc0.x float quad_edge_tessfactor
.patch_constant SV_TessFactor1 vpc1.x float quad_edge_tessfactor
.patch_constant SV_TessFactor2 vpc2.x float quad_edge_tessfactor
.patch_constant SV_TessFactor3 vpc3.x float quad_edge_tessfactor
.patch_constant SV_InsideTessFactor0 vpc4.x float quad_inside_tessfactor
.patch_constant SV_InsideTessFactor1 vpc5.x float quad_inside_tessfactor
.output SV_Position0 o0.xyzw float
.output COLOR0 o1.xyzw float
dcl_constantbuffer cb0[1], immediateIndexed
dcl_input_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_input vDomain.xy
dcl_input vicp[4][0].xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_temps 3
add r0.xyzw, -vicp[0][0].xyzw, vicp[1][0].xyzw
mad r0.xyzw, vDomain.xxxx, r0.xyzw, vicp[0][0].xyzw
add r1.xyzw, -vicp[2][0].xyzw, vicp[3][0].xyzw
mad r1.xyzw, vDomain.xxxx, r1.xyzw, vicp[2][0].xyzw
add r1.xyzw, -r0.xyzw, r1.xyzw
mad r0.xyzw, vDomain.yyyy, r1.xyzw, r0.xyzw
mad r2.x, vDomain.x, l(6.283185), cb0[0].z
sincos r2.x, null, r2.x
mad o0.y, r2.x, l(0.125000), r0.y
mov o0.xzw, r0.xxzw
mad o1.xyz, r2.xxxx, l(0.250000, 0.250000, 0.000000, 0.000000), l(0.250000, 0.500000, 0.250000, 0.000000)
mov o1.w, l(1.000000)
ret
