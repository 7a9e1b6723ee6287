mod adb;
mod cli;
mod sim;
