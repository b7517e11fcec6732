import { startLab } from "../harness";
import { defineMatrixSuite } from "./matrix";

defineMatrixSuite("create", startLab);
