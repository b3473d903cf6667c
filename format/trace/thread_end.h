// What a thread leaves to be done when it ends, for state kept per thread.
//
// Not a thread_local object with a destructor: mingw-w64 (the Windows layer)
// emulates thread_local storage, and its threads library frees a thread's
// storage before it runs the destructors of the objects in it (both are
// destructors of its thread keys, the storage's key made first), so those
// destructors read, and free, memory the heap may have handed out again.
// The state lives on the heap instead, and a thread key hands it to its end.
#pragma once

#include <pthread.h>

namespace d3dcap::trace {

class ThreadEnd {
  public:
    // end(state) runs on each thread that called watch(state), when that
    // thread ends by itself; not for one the process ends with it (exit(),
    // ExitProcess). Code that runs on the thread after it (other keys'
    // destructors, thread_local destructors) must not use the state.
    explicit ThreadEnd(void (*end)(void*)) { pthread_key_create(&key_, end); }
    ThreadEnd(const ThreadEnd&) = delete;
    ThreadEnd& operator=(const ThreadEnd&) = delete;

    void watch(void* state) const { pthread_setspecific(key_, state); }

  private:
    pthread_key_t key_{};
};

}  // namespace d3dcap::trace
