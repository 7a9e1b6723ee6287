mod cli;
mod errors;
mod hint;
mod keypad;
mod locate_real;
mod no_calibration;
mod real_screens;
mod sim;
