// The main of every Catch2 test without one of its own. Catch2 exits with
// the number of failed assertions, so a case with exactly 77 failures would
// read as skipped (SKIP_RETURN_CODE 77): any failure exits 1 (run_catch).
#include "support/catch_run.h"

int main(int argc, char** argv) {
    return test_support::run_catch(argc, argv);
}
