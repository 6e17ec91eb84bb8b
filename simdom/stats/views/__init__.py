"""Every statistics command's answer: sentences first, then compact tables, and where it is written."""
