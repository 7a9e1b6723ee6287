mod cli;
mod errors;
mod locate_real;
mod real_screens;
mod sim;
