mod adb;
mod freeze;
