// The main of every Catch2 test. Catch2 exits with the number of failed
// assertions, so a case with exactly 77 failures would read as skipped
// (SKIP_RETURN_CODE 77): any failure exits 1 here.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "support/skip.h"

int main(int argc, char** argv) {
    return test_support::exit_status(Catch::Session().run(argc, argv));
}
