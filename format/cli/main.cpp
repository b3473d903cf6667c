// d3dcap: the command-line front end.
#include <d3dcap/api/calls.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "api_command.h"
#include "capture_command.h"
#include "demo.h"
#include "trace_commands.h"

namespace {

int run_demo() {
    std::size_t context_methods = 0;
    for (const d3dcap::api::CallInfo& call : d3dcap::api::kCalls) {
        if (call.interface_name.starts_with("ID3D11DeviceContext")) ++context_methods;
    }
    return d3dcap::cli::run_demo(d3dcap::api::kCalls.size(), context_methods);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"d3dcap: Direct3D 11.1/11.2 capture and replay"};
    app.require_subcommand(1);

    d3dcap::cli::ApiListOptions api_options;
    CLI::App* api_cmd = app.add_subcommand("api", "List the calls of the API table");
    api_cmd->add_option("--interface", api_options.interface_name,
                        "Only this interface, e.g. ID3D11DeviceContext2");
    api_cmd->add_flag("--json", api_options.json, "Print JSON");
    api_cmd->add_flag("--params", api_options.params,
                      "One line per parameter, with its direction and size");

    CLI::App* demo_cmd = app.add_subcommand("demo", "Run the demo");

    d3dcap::cli::InfoOptions info_options;
    CLI::App* info_cmd = app.add_subcommand(
        "info", "Summarise a trace: producer, device, events, frames, chunks, calls");
    info_cmd->add_option("trace", info_options.trace, "The trace file")->required();
    info_cmd->add_flag("--json", info_options.json, "Print JSON");

    d3dcap::cli::DumpOptions dump_options;
    CLI::App* dump_cmd = app.add_subcommand("dump", "Print events, one line each");
    dump_cmd->add_option("trace", dump_options.trace, "The trace file")->required();
    dump_cmd->add_option("--from", dump_options.from, "First event (default 0)");
    dump_cmd->add_option("--to", dump_options.to, "Last event, inclusive (default: the last)");
    dump_cmd->add_flag("--json", dump_options.json, "One JSON object per line");

    d3dcap::cli::VerifyOptions verify_options;
    CLI::App* verify_cmd =
        app.add_subcommand("verify", "Check every chunk and record; exit 1 on any problem");
    verify_cmd->add_option("trace", verify_options.trace, "The trace file")->required();

    d3dcap::cli::CaptureOptions capture_options;
    CLI::App* capture_cmd = app.add_subcommand(
        "capture",
        "Run a program under the capture layer: d3dcap capture [options] -- PROGRAM ARGS...");
    capture_cmd->add_option("-o,--output", capture_options.output,
                            "The trace file (default: PROGRAM.d3dcap)");
    capture_cmd->add_option("--frames", capture_options.frames,
                            "Frames to record, A-B (from 0, inclusive); before A nothing is "
                            "recorded and the trace starts with a state snapshot");
    capture_cmd->add_option("--device", capture_options.device,
                            "Create this device whatever the program asks for: reference, "
                            "hardware or null");
    capture_cmd->add_option("command", capture_options.command, "The program and its arguments")
        ->required();
    capture_cmd->prefix_command();

    CLI11_PARSE(app, argc, argv);
    if (api_cmd->parsed()) {
        if (d3dcap::cli::print_api(api_options, std::cout) == 0) {
            std::cerr << "d3dcap api: no interface named '" << api_options.interface_name
                      << "' in the API table\n";
            return 2;
        }
        return 0;
    }
    if (demo_cmd->parsed()) return run_demo();
    if (info_cmd->parsed()) return d3dcap::cli::run_info(info_options, std::cout, std::cerr);
    if (dump_cmd->parsed()) return d3dcap::cli::run_dump(dump_options, stdout, std::cerr);
    if (capture_cmd->parsed())
        return d3dcap::cli::run_capture(capture_options, argv[0], std::cout, std::cerr);
    if (verify_cmd->parsed()) return d3dcap::cli::run_verify(verify_options, std::cout, std::cerr);
    return 1;
}
