//! The agent's integration tests, one binary (the library is linked once, not thirteen times),
//! one module per area; `support` holds what they share. The simulated phone's own tests live in
//! its crate (`sim/tests/`).

mod support;

mod calibrate;
mod device;
mod hardening;
mod injector;
mod play;
mod profile;
mod props;
mod solve;
mod vision;
mod visualize;
