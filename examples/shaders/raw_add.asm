// out[i] = in[i] + cb0[0].x * i over raw buffers, one word per thread.
cs_5_0
.cbuffer Constants b0 16
.variable step 0 uint
.binding input t0
.binding output u0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_resource_raw t0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadID.x, l(2)
ld_raw r0.y, r0.x, t0.xxxx
imul null, r0.z, cb0[0].x, vThreadID.x
iadd r0.y, r0.y, r0.z
store_raw u0.x, r0.x, r0.y
ret
