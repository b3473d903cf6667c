cs_5_0
dcl_thread_group 1, 1, 1
movv r0.x, l(1)
ret
