mod adb;
mod cli;
mod end_screen;
mod fleet;
mod lives;
mod resilience;
mod sim;
