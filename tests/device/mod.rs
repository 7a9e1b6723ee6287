mod adb;
