mod cli;
mod errors;
mod kinds;
mod no_calibration;
mod one_reader;
mod real_screens;
mod sim;
