console.log("toolgate check: not yet");
