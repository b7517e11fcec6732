throw new Error("FOLDER-PLUGIN-LOADED");
