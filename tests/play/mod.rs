mod adb;
mod cli;
mod end_screen;
mod flash;
mod fleet;
mod lives;
mod resilience;
mod sim;
