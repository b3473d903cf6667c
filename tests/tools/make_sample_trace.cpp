// Writes the sample traces the golden and fuzz tests start from.
// usage: make_sample_trace golden|large OUT.d3dcap
#include <cstdio>
#include <cstring>

#include "support/trace_fixture.h"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s golden|large OUT.d3dcap\n", argv[0]);
        return 2;
    }
    if (std::strcmp(argv[1], "golden") == 0) {
        d3dcap::testing::write_golden_trace(argv[2]);
    } else {
        d3dcap::testing::SampleTraceOptions options;
        options.writer.chunk_bytes = 4096;
        d3dcap::testing::write_sample_trace(argv[2], options);
    }
    return 0;
}
