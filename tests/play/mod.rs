mod adb;
mod cli;
mod fleet;
mod lives;
mod resilience;
mod sim;
