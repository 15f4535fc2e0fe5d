/// libFuzzer's driver (compiler-rt), which parses libFuzzer's flags and calls `callback` per input.
@_extern(c, "LLVMFuzzerRunDriver")
func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The executable's entry point. SwiftPM links executables with `main` aliased to this symbol, so
/// it hands control to libFuzzer's driver (the `fuzzer_no_main` runtime has no `main` of its own).
@_cdecl("DeepLinkFuzz_main")
func deepLinkFuzzMain(
    _ argc: CInt,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
    var argc = argc
    var argv = argv
    return llvmFuzzerRunDriver(&argc, &argv) { data, size in
        let input = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
        FuzzTarget.selected.run(input)
        return 0
    }
}
