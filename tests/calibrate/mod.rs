mod probe;
mod profile;
