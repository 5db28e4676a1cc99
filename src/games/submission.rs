//! Several orders in one message.
