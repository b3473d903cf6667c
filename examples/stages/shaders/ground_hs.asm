// One quad patch of four control points, tessellated cb0[0].y times along
// each edge and inside (integer partitioning).
hs_5_0
.input POSITION0 v0.xyzw float
.output POSITION0 o0.xyzw float
.patch_constant SV_TessFactor0 o0.x float quad_edge_tessfactor
.patch_constant SV_TessFactor1 o1.x float quad_edge_tessfactor
.patch_constant SV_TessFactor2 o2.x float quad_edge_tessfactor
.patch_constant SV_TessFactor3 o3.x float quad_edge_tessfactor
.patch_constant SV_InsideTessFactor0 o4.x float quad_inside_tessfactor
.patch_constant SV_InsideTessFactor1 o5.x float quad_inside_tessfactor
hs_decls
dcl_input_control_point_count 4
dcl_output_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
dcl_constantbuffer cb0[1], immediateIndexed
hs_control_point_phase
dcl_input vOutputControlPointID
dcl_input v[4][0].xyzw
dcl_output o0.xyzw
mov o0.xyzw, v[vOutputControlPointID][0].xyzw
ret
hs_fork_phase
dcl_output_siv o0.x, finalQuadUeq0EdgeTessFactor
dcl_output_siv o1.x, finalQuadVeq0EdgeTessFactor
dcl_output_siv o2.x, finalQuadUeq1EdgeTessFactor
dcl_output_siv o3.x, finalQuadVeq1EdgeTessFactor
dcl_output_siv o4.x, finalQuadUInsideTessFactor
dcl_output_siv o5.x, finalQuadVInsideTessFactor
mov o0.x, cb0[0].y
mov o1.x, cb0[0].y
mov o2.x, cb0[0].y
mov o3.x, cb0[0].y
mov o4.x, cb0[0].y
mov o5.x, cb0[0].y
ret
