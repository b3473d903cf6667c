// Catch2's implementation, compiled once: every test program links it.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "support/catch_run.h"
#include "support/skip.h"

namespace test_support {

int run_catch(int argc, char** argv, const std::function<void()>& prepare) {
    Catch::Session session;
    if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return exit_status(rc);
    const Catch::ConfigData& config = session.configData();
    const bool listing =
        config.listTests || config.listTestNamesOnly || config.listTags || config.listReporters;
    if (!listing && prepare) prepare();
    return exit_status(session.run());
}

}  // namespace test_support
