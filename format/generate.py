#!/usr/bin/env python3
"""The one generator entry point: API table -> everything generated.

    generate.py --out DIR

writes, under DIR:
    include/{dxgitype,dxgi,dxgi1_2..dxgi1_6,d3d11,d3d11_1..d3d11_4}.h   Linux headers
    include/d3dcap/api/calls.h                             call ids and metadata
    include/d3dcap/api/call_dispatch.h                     typed access to a record's call
    include/d3dcap/api/call_json.h, src/call_json.cpp      call arguments as JSON
    include/d3dcap/api/call_encoders.h, src/call_encoders.cpp  C arguments -> parameter tables
    include/d3dcap/api/call_decoders.h, src/call_decoders.cpp  parameter tables -> replayed calls
    include/d3dcap/capture/wrappers.h, src/capture_wrappers.cpp  the capture layer's COM wrappers
    checks/sample_calls.inc                                sample records and their JSON
    checks/context_calls.inc                               one call of each context method
    schema/calls.fbs, schema/record.fbs                    FlatBuffers schema
    checks/abi_check.c, checks/iid_check.cpp, checks/slot_table.inc
Files whose content did not change are left untouched.
"""

import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from format import api as api_table  # noqa: E402
from format.codegen import (  # noqa: E402
    abi_checks, c_headers, call_table, dispatch, encoders, json_dump, samples, schema)
from format.codegen import capture_samples, decoders, wrappers  # noqa: E402
from format.codegen.common import write_if_changed  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=pathlib.Path)
    args = parser.parse_args()
    try:
        api = api_table.load()
        outputs = {f"include/{name}": text for name, text in c_headers.generate(api).items()}
        outputs["include/d3dcap/api/calls.h"] = call_table.generate(api, api_table.CALL_COUNT)
        outputs["include/d3dcap/api/call_dispatch.h"] = dispatch.generate(api)
        outputs["include/d3dcap/api/call_json.h"] = json_dump.generate_header(api)
        outputs["src/call_json.cpp"] = json_dump.generate_source(api)
        outputs["include/d3dcap/api/call_encoders.h"] = encoders.generate_header(api)
        outputs["src/call_encoders.cpp"] = encoders.generate_source(api)
        outputs["include/d3dcap/api/call_decoders.h"] = decoders.generate_header(api)
        outputs["src/call_decoders.cpp"] = decoders.generate_source(api)
        outputs["include/d3dcap/capture/wrappers.h"] = wrappers.generate_header(api)
        outputs["src/capture_wrappers.cpp"] = wrappers.generate_source(api)
        outputs["checks/sample_calls.inc"] = samples.generate(api)
        outputs["checks/context_calls.inc"] = capture_samples.generate(api)
        outputs["schema/calls.fbs"] = schema.generate(api)
        outputs["schema/record.fbs"] = schema.generate_record(api)
        outputs["checks/abi_check.c"] = abi_checks.abi_check_c(api)
        outputs["checks/iid_check.cpp"] = abi_checks.iid_check_cpp(api)
        outputs["checks/slot_table.inc"] = abi_checks.slot_table_inc(api)
    except api_table.TableError as error:
        print(f"format/api: {error}", file=sys.stderr)
        return 1
    for relative, text in outputs.items():
        write_if_changed(args.out / relative, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
