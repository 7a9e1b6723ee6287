mod adb;
mod cli;
mod resilience;
mod sim;
