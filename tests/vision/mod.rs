mod cli;
mod errors;
mod real_screens;
mod sim;
