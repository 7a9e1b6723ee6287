//! Finding the keypad.
