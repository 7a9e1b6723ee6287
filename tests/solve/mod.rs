mod cli;
mod gif;
