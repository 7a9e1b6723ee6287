mod gif;
mod sim;
