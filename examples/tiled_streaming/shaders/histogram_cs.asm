// A 16-bin histogram of the view's brightness ((r + 2g + b) / 4), one
// thread per pixel, counted with atomic adds into a raw buffer.
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_resource_texture2d (float,float,float,float) t0
dcl_uav_raw u0
dcl_input vThreadID.xy
dcl_temps 1
dcl_thread_group 16, 16, 1
mov r0.xy, vThreadID.xyxx
mov r0.zw, l(0, 0, 0, 0)
ld_indexable(texture2d)(float,float,float,float) r0.xyz, r0.xyzw, t0.xyzw
dp3 r0.x, r0.xyzx, l(0.250000, 0.500000, 0.250000, 0.000000)
mul r0.x, r0.x, l(15.999000)
ftou r0.x, r0.x
ishl r0.x, r0.x, l(2)
atomic_iadd u0, r0.x, l(1)
ret
