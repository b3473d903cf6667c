// Compares the device-context calls a trace recorded on one context, read
// through FlatBuffers' reflection of the schema (record.bfbs), with the
// lines a coverage program printed: "Call\tfield=text\t..." a call each, in
// order (tests/capture/support/field_text.h). check-wine-capture runs it on
// the Windows coverage program's trace.
// usage: compare_recorded_fields TRACE EXPECTED_LINES CONTEXT_ID
// Prints "N context calls recorded as expected", or a line per difference.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "capture/support/record_fields.h"

namespace {

struct ExpectedCall {
    std::string table;
    d3dcap::testing::ExpectedFields fields;
};

std::vector<ExpectedCall> read_expected(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::vector<ExpectedCall> calls;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        ExpectedCall call;
        std::size_t start = 0;
        while (start <= line.size()) {
            const std::size_t end = std::min(line.find('\t', start), line.size());
            const std::string item = line.substr(start, end - start);
            if (start == 0) {
                call.table = item;
            } else {
                const std::size_t equals = item.find('=');
                if (equals == std::string::npos)
                    throw std::runtime_error("no field=text in \"" + item + "\"");
                call.fields.push_back({item.substr(0, equals), item.substr(equals + 1), false});
            }
            start = end + 1;
        }
        calls.push_back(std::move(call));
    }
    return calls;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s TRACE EXPECTED_LINES CONTEXT_ID\n", argv[0]);
        return 2;
    }
    try {
        const std::vector<ExpectedCall> expected = read_expected(argv[2]);
        const d3dcap::testing::RecordReflection reflection(D3DCAP_RECORD_BFBS);
        const std::vector<d3dcap::testing::ReflectedCall> recorded =
            d3dcap::testing::reflected_context_calls(reflection, argv[1], std::stoull(argv[3]));
        std::vector<std::string> differences;
        if (recorded.size() != expected.size())
            differences.push_back(std::to_string(recorded.size()) + " context calls recorded, " +
                                  std::to_string(expected.size()) + " made");
        for (std::size_t i = 0; i < expected.size() && i < recorded.size(); ++i)
            for (std::string& difference : d3dcap::testing::field_differences(
                     expected[i].table, expected[i].fields, recorded[i]))
                differences.push_back(std::move(difference));
        for (const std::string& difference : differences) std::printf("%s\n", difference.c_str());
        if (!differences.empty()) return 1;
        std::printf("%zu context calls recorded as expected\n", recorded.size());
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "compare_recorded_fields: %s\n", error.what());
        return 2;
    }
}
