//! stub
#[test]
fn stub() {}
