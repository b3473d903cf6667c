// d3dcap: the command-line front end.
#include <d3dcap/api/calls.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "api_command.h"
#include "capture_command.h"
#include "demo.h"
#include "export_command.h"
#include "replay_command.h"
#include "shader_command.h"
#include "tiles_command.h"
#include "trace_commands.h"
#include "version.h"

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
    app.set_version_flag("--version", d3dcap::cli::version_text,
                         "Print the version, the build's commit and the replay devices, and exit");

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

    d3dcap::cli::RepackOptions repack_options;
    CLI::App* repack_cmd = app.add_subcommand(
        "repack", "Rewrite a trace with LZ4-compressed chunks (or --store them uncompressed)");
    repack_cmd->add_option("trace", repack_options.trace, "The trace file")->required();
    repack_cmd->add_option("output", repack_options.output, "The trace to write (may be the same)")
        ->required();
    repack_cmd->add_flag("--store", repack_options.store, "Store chunks uncompressed");

    d3dcap::cli::ShaderOptions shader_options;
    CLI::App* shader_cmd =
        app.add_subcommand("shader", "SM4/SM5 shader assembly: assemble or disassemble DXBC");
    shader_cmd->require_subcommand(1);
    CLI::App* asm_cmd =
        shader_cmd->add_subcommand("asm", "Assemble shader assembly text into a DXBC container");
    asm_cmd->add_option("input", shader_options.input, "The assembly text")->required();
    asm_cmd->add_option("-o,--output", shader_options.output, "The DXBC file to write")->required();
    CLI::App* disasm_cmd = shader_cmd->add_subcommand(
        "disasm", "Print a DXBC container's signatures and instructions as assembly");
    disasm_cmd->add_option("input", shader_options.input, "The DXBC file")->required();

    d3dcap::cli::TilesOptions tiles_options;
    CLI::App* tiles_cmd = app.add_subcommand(
        "tiles", "The tile mappings of every tile pool and tiled resource after an event");
    tiles_cmd->add_option("trace", tiles_options.trace, "The trace file")->required();
    tiles_cmd->add_option("--event", tiles_options.event, "The event (from 0)")->required();
    tiles_cmd->add_option("--resource", tiles_options.resource,
                          "Only this tiled resource: an object id or a debug name");
    tiles_cmd->add_flag("--json", tiles_options.json, "Print JSON");
    tiles_cmd
        ->add_option("--checkpoint-interval", tiles_options.checkpoint_interval,
                     "Events between checkpoints of the tile state (0: none)")
        ->capture_default_str();

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
                            "hardware, warp or null");
    capture_cmd->add_option("--hashes", capture_options.hashes,
                            "Record content hashes of these resources at each frame end, for "
                            "replay to check: all, or debug names and object ids separated by "
                            "commas");
    capture_cmd->add_flag("--wine", capture_options.wine,
                          "Run a Windows program under Wine with the Windows capture layer "
                          "(the default for a PE executable)");
    capture_cmd->add_option("command", capture_options.command, "The program and its arguments")
        ->required();
    capture_cmd->prefix_command();

    d3dcap::cli::ReplayCommandOptions replay_options;
    CLI::App* replay_cmd = app.add_subcommand(
        "replay", "Replay a trace on a device, time every event, check it against the recording");
    replay_cmd->add_option("trace", replay_options.trace, "The trace file")->required();
    replay_cmd
        ->add_option("--device", replay_options.device,
                     "auto (a Vulkan GPU with sparse residency, else the CPU Vulkan "
                     "device, else the reference device), hardware, warp (the CPU Vulkan "
                     "device, lavapipe), reference or null")
        ->capture_default_str();
    replay_cmd->add_option("--gpu", replay_options.gpu,
                           "The Vulkan device to use, by its index in Vulkan's device list "
                           "(default: the first discrete GPU; also D3DCAP_GPU)");
    replay_cmd->add_option("--frames", replay_options.frames,
                           "Frames to time, A-B (the trace's frames, from 0); what comes before "
                           "is replayed untimed");
    replay_cmd->add_option("--loop", replay_options.loops,
                           "Time the frames K times after a warm-up pass, each from a fresh "
                           "device, and report min/median/p95/max");
    replay_cmd->add_option("--report", replay_options.report, "Write the JSON report here");
    replay_cmd->add_flag("--verify", replay_options.verify,
                         "Recompute the content hashes recorded at frame ends");
    replay_cmd->add_flag("--strict", replay_options.strict,
                         "Fail when the device differs from the recording one in a way replay "
                         "would adapt to");
    replay_cmd->add_option("--screenshots", replay_options.screenshots,
                           "Write every presented frame as DIR/frame-NNNNN.png");
    replay_cmd
        ->add_option("--gpu-timestamps", replay_options.gpu_timestamps,
                     "On the Vulkan device: a GPU timestamp per event, or per submission "
                     "(fewer queries; a frame's GPU time goes to its last event)")
        ->check(CLI::IsMember({"event", "submission"}))
        ->capture_default_str();
    replay_cmd
        ->add_option("--rows", replay_options.rows,
                     "Rows of the slowest-events and slowest-regions tables")
        ->capture_default_str();
    replay_cmd->add_flag("--quiet", replay_options.quiet,
                         "No progress bar and only the first lines of the summary");

    d3dcap::cli::CompareOptions compare_options;
    CLI::App* compare_cmd = app.add_subcommand(
        "compare", "Frame and marker times of two replay reports side by side, with ratios");
    compare_cmd->add_option("a", compare_options.a, "Report A (d3dcap replay --report)")
        ->required();
    compare_cmd->add_option("b", compare_options.b, "Report B")->required();

    d3dcap::cli::ExportOptions export_options;
    CLI::App* export_cmd = app.add_subcommand(
        "export", "Write what a resource holds after an event: PNG, DDS or raw bytes");
    export_cmd->add_option("trace", export_options.trace, "The trace file")->required();
    export_cmd->add_option("--event", export_options.event, "The event (from 0)")->required();
    export_cmd
        ->add_option("--resource", export_options.resource,
                     "The resource's object id, or output: what the event draws into (a swap "
                     "chain call: its back buffer; else the first render target bound)")
        ->required();
    export_cmd->add_option("--subresource", export_options.subresource, "The subresource")
        ->capture_default_str();
    export_cmd
        ->add_option("--device", export_options.device,
                     "The device to replay on: auto, hardware, warp or reference")
        ->capture_default_str();
    export_cmd
        ->add_option("-o,--output", export_options.output,
                     "OUT.png (the picture, first depth slice, 8 bits a channel), OUT.dds (the "
                     "subresource as stored) or OUT.raw (its bytes, rows tightly packed)")
        ->required();

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
    if (replay_cmd->parsed())
        return d3dcap::cli::run_replay_command(replay_options, std::cout, std::cerr);
    if (compare_cmd->parsed())
        return d3dcap::cli::run_compare(compare_options, std::cout, std::cerr);
    if (verify_cmd->parsed()) return d3dcap::cli::run_verify(verify_options, std::cout, std::cerr);
    if (export_cmd->parsed())
        return d3dcap::cli::run_export_command(export_options, std::cout, std::cerr);
    if (repack_cmd->parsed()) return d3dcap::cli::run_repack(repack_options, std::cout, std::cerr);
    if (tiles_cmd->parsed()) return d3dcap::cli::run_tiles(tiles_options, std::cout, std::cerr);
    if (shader_cmd->parsed()) {
        shader_options.assemble = asm_cmd->parsed();
        return d3dcap::cli::run_shader(shader_options, std::cout, std::cerr);
    }
    return 1;
}
