mod adb;
mod cli;
mod fleet;
mod resilience;
mod sim;
