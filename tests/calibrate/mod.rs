mod probe;
mod profile;
mod same_profile;
