mod adb;
mod freeze;
mod lock;
