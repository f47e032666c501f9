fn main() {
    // Only the Node addon needs napi's link settings; the core alone (fuzz/) builds without them.
    #[cfg(feature = "node")]
    napi_build::setup();
}
