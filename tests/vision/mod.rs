mod cli;
mod errors;
mod keypad;
mod locate_real;
mod no_calibration;
mod perturbed;
mod real_screens;
mod sim;
