// The data tests of the runtime run on the reference device.
#include "data_support.h"

std::unique_ptr<data_tests::Backend> data_tests::make_test_backend() {
    return d3dcap::runtime::backend::make_reference_backend();
}
